import { useEffect } from 'react';
import { useAppInfo } from './app-info-store';
import { LoaderCard } from './LoaderCard';
import { StrataCard } from './StrataCard';
import { EnvironmentVariablesCard } from './EnvironmentVariablesCard';
import { XdgFoldersCard } from './XdgFoldersCard';

/** About: what `app.info` and `env.summary` report, each loaded (and retried) on its own. */
export function AboutView() {
  const appInfoIdle = useAppInfo((s) => s.appInfo.status === 'idle');
  const envIdle = useAppInfo((s) => s.envSummary.status === 'idle');
  const loadAppInfo = useAppInfo((s) => s.loadAppInfo);
  const loadEnvSummary = useAppInfo((s) => s.loadEnvSummary);

  useEffect(() => {
    if (appInfoIdle) void loadAppInfo();
  }, [appInfoIdle, loadAppInfo]);
  useEffect(() => {
    if (envIdle) void loadEnvSummary();
  }, [envIdle, loadEnvSummary]);

  return (
    <div className="about">
      <div className="about-row">
        <LoaderCard />
        <StrataCard />
      </div>
      <EnvironmentVariablesCard />
      <XdgFoldersCard />
    </div>
  );
}
