import './boot.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigError, config } from '../lib/env.ts';
import { App } from './app.tsx';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

try {
  config();
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
