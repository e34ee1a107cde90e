import type { BackendTarget, StartedBackend } from './types.ts';

/** Where an existing Appwrite is, from `APPWRITE_ENDPOINT`, `APPWRITE_PROJECT_ID`, `APPWRITE_API_KEY`. */
export interface RemoteSettings {
  endpoint: string;
  projectId: string;
  apiKey: string;
}

/**
 * An existing Appwrite 1.9 (Cloud, self-hosted, or a local backend started by hand), given by
 * `APPWRITE_ENDPOINT`, `APPWRITE_PROJECT_ID` and `APPWRITE_API_KEY` (a key with all scopes).
 * Nothing is started or stopped; the suites create their own uniquely named users, teams and
 * documents in that project, and the global setup provisions the schema there.
 */
export class RemoteBackend implements BackendTarget {
  readonly kind = 'remote' as const;
  private readonly settings: Partial<RemoteSettings>;

  constructor(settings: Partial<RemoteSettings> = RemoteBackend.settingsFromEnv()) {
    this.settings = settings;
  }

  static settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<RemoteSettings> {
    return {
      endpoint: env.APPWRITE_ENDPOINT,
      projectId: env.APPWRITE_PROJECT_ID,
      apiKey: env.APPWRITE_API_KEY,
    };
  }

  async unavailableReason(): Promise<string | null> {
    const { endpoint, projectId, apiKey } = this.settings;
    const missing: string[] = [];
    if (!endpoint || !/^https?:\/\/.+\/v1$/.test(endpoint))
      missing.push('APPWRITE_ENDPOINT (…/v1)');
    if (!projectId) missing.push('APPWRITE_PROJECT_ID');
    if (!apiKey) missing.push('APPWRITE_API_KEY');
    if (missing.length) return `the remote target needs ${missing.join(', ')} in the environment`;
    try {
      const response = await fetch(`${endpoint}/health/version`, {
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) return `${endpoint}/health/version answered ${response.status}`;
      return null;
    } catch (error) {
      return `${endpoint} does not answer: ${(error as Error).message}`;
    }
  }

  async start(): Promise<StartedRemoteBackend> {
    const reason = await this.unavailableReason();
    if (reason) throw new Error(reason);
    return new StartedRemoteBackend(this.settings as RemoteSettings);
  }
}

/** An existing Appwrite: it cannot be restarted, and stopping only forgets it. */
export class StartedRemoteBackend implements StartedBackend {
  readonly kind = 'remote' as const;
  readonly endpoint: string;
  readonly projectId: string;
  readonly apiKey: string;

  constructor(settings: RemoteSettings) {
    this.endpoint = settings.endpoint;
    this.projectId = settings.projectId;
    this.apiKey = settings.apiKey;
  }

  describe(): string {
    return `remote Appwrite at ${this.endpoint} (project ${this.projectId})`;
  }

  async restart(): Promise<void> {
    throw new Error('a remote Appwrite cannot be restarted by the tests');
  }

  async crashAndRestart(): Promise<void> {
    throw new Error('a remote Appwrite cannot be crashed by the tests');
  }

  async stop(): Promise<void> {}

  async [Symbol.asyncDispose](): Promise<void> {}
}
