import { Client } from 'node-appwrite';
import { adminEnv } from './lib/env.ts';
import { Provisioner } from './lib/provisioner.ts';
import { schema } from './schema.ts';

/** `npm run provision`: applies the schema as code to the Appwrite named by the environment. */
async function main(): Promise<void> {
  const env = adminEnv();
  console.log(`Provisioning ${env.endpoint} (project ${env.projectId})`);
  const client = new Client()
    .setEndpoint(env.endpoint)
    .setProject(env.projectId)
    .setKey(env.apiKey);
  const report = await new Provisioner(client, console.log).apply(schema);
  console.log(
    report.changes.length === 0
      ? 'Already up to date: nothing changed.'
      : `Done: ${report.changes.length} change(s).`,
  );
}

main().catch((error: unknown) => {
  console.error(`Provisioning failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
