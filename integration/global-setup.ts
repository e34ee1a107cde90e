import type { TestProject } from 'vitest/node';
import { selectTarget } from './targets/select.ts';
import type { BackendConnection, StartedBackend } from './targets/types.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    backend: BackendConnection;
  }
}

let started: StartedBackend | null = null;

/** Starts the chosen backend once for the whole integration run and hands its connection to tests. */
export async function setup(project: TestProject): Promise<void> {
  const target = selectTarget();
  const reason = await target.unavailableReason();
  if (reason) throw new Error(`Integration target "${target.kind}" cannot run here: ${reason}`);
  started = await target.start();
  project.provide('backend', {
    kind: started.kind,
    endpoint: started.endpoint,
    projectId: started.projectId,
    apiKey: started.apiKey,
  });
}

export async function teardown(): Promise<void> {
  await started?.stop();
}
