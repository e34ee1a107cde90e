import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigError, config } from '../lib/env.ts';
import { App, isDeskScreen } from './app.tsx';
import { restoreSessionOnce } from '../features/auth/index.ts';
import { lastDeskUser, prefetchDeskSnapshot } from './desk-store.ts';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

try {
  config();
  if (isDeskScreen(location.pathname)) {
    // Before React mounts: the kept orders' first screen and the session are read meanwhile.
    prefetchDeskSnapshot();
    void restoreSessionOnce(lastDeskUser());
  }
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
} catch (error) {
  const problems = error instanceof ConfigError ? error.problems : [String(error)];
  root.render(
    <main className="state state--error state--page" role="alert">
      <p className="state__title">Livedesk is not configured</p>
      <p className="state__text">Set these in .env (see .env.example), then restart:</p>
      <ul className="state__list">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </main>,
  );
}
