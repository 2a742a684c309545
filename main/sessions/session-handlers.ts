import type { Handlers } from '../router/router';
import { diffSessions } from '../../shared/sessions/session-diff';
import { exportSession } from './session-export';
import { deleteSession, digestSession, listSessions, openSession, searchSessions } from './session-store';
import type { SessionService } from './session-service';

type SessionChannels =
  'launch.start' | 'launch.stop' | 'sessions.list' | 'sessions.open' | 'sessions.search' | 'sessions.delete' | 'sessions.export' | 'sessions.diff';

/** The `launch.*` and `sessions.*` channels over one SessionService (so every host sees the same running launches). */
export function sessionHandlers(service: SessionService): Pick<Handlers, SessionChannels> {
  return {
    'launch.start': async (request) => {
      const s = await service.start(request);
      return { id: s.id, pid: s.launch.pid, file: s.file, header: s.header };
    },
    'launch.stop': ({ id }) => ({ id, stopping: service.stop(id) }),
    'sessions.list': () => listSessions(service.store),
    'sessions.open': ({ id, ...rest }) => openSession(service.store, id, rest),
    'sessions.search': ({ query, ids, limit }) => searchSessions(service.store, query, ids, limit),
    'sessions.delete': ({ id }) => deleteSession(service.store, id),
    'sessions.export': ({ id, format }) => exportSession(service.store, id, format),
    'sessions.diff': async ({ a, b }) => diffSessions(await digestSession(service.store, a), await digestSession(service.store, b)),
  };
}
