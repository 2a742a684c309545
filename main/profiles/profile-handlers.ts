import type { Handlers } from '../router/router';
import {
  profilesApply,
  profilesBind,
  profilesCopy,
  profilesCreate,
  profilesDelete,
  profilesExplain,
  profilesExport,
  profilesImport,
  profilesLaunchEnvironment,
  profilesList,
  profilesOverrideExport,
  profilesRename,
  profilesSave,
  profilesUnbind,
  type ProfileServiceOptions,
} from './profile-service';

type ProfileChannel = Extract<keyof Handlers, `profiles.${string}`>;

/** The profiles.* handlers (shared/profiles/profile-channels.ts), spread into main/router/handlers.ts. */
export function profileHandlers(options: ProfileServiceOptions): Pick<Handlers, ProfileChannel> {
  return {
    'profiles.list': () => profilesList(options),
    'profiles.create': (req) => profilesCreate(options, req),
    'profiles.save': (req) => profilesSave(options, req),
    'profiles.copy': (req) => profilesCopy(options, req),
    'profiles.rename': (req) => profilesRename(options, req),
    'profiles.delete': (req) => profilesDelete(options, req),
    'profiles.export': (req) => profilesExport(options, req),
    'profiles.import': (req) => profilesImport(options, req),
    'profiles.apply': (req) => profilesApply(options, req),
    'profiles.overrideExport': (req) => profilesOverrideExport(options, req),
    'profiles.launchEnvironment': (req) => profilesLaunchEnvironment(options, req),
    'profiles.explain': (req) => profilesExplain(options, req),
    'profiles.bind': (req) => profilesBind(options, req),
    'profiles.unbind': (req) => profilesUnbind(options, req),
  };
}
