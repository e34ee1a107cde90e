/** Which kind of backend the integration suites run against. */
export type TargetKind = 'local' | 'container' | 'appwrite' | 'remote';

/**
 * What the run did with its target, written as JSON to `LIVEDESK_STATUS_FILE` when that is set
 * (`scripts/test.ts` reads it for its summary).
 */
export interface TargetStatus {
  kind: TargetKind;
  ran: boolean;
  /** Why it did not run. */
  reason?: string;
  /** What ran, e.g. `container 3f2a… of localhost/livedesk-backend:… on podman 4.3.1`. */
  detail?: string;
  provisioning?: string;
  /** Set when the backend died during the run. */
  died?: string;
}
