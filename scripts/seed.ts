import { Client } from 'node-appwrite';
import { adminEnv, numberArg, parseArgs } from './lib/env.ts';
import { Seeder } from './lib/seeder.ts';

/** `npm run seed -- --orders N [--seed S]`: demo catalog, demo accounts (printed) and N orders. */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const orders = numberArg(args, 'orders', 10_000, { min: 0, max: 1_000_000 });
  const seed = numberArg(args, 'seed', 20261122);
  const env = adminEnv();
  const client = new Client()
    .setEndpoint(env.endpoint)
    .setProject(env.projectId)
    .setKey(env.apiKey);
  const seeder = new Seeder(client, console.log);
  console.log(`Seeding ${env.endpoint} (project ${env.projectId})`);
  const products = await seeder.ensureCatalog();
  console.log(`  catalog: ${products} product(s) added`);
  await seeder.ensureAccounts();
  const result = await seeder.seedOrders(orders, { seed });
  console.log(
    `  orders: ${result.orders} added, ${result.activities} activity records, in ${result.seconds.toFixed(1)} s (${Math.round(result.orders / Math.max(result.seconds, 0.001))} orders/s)`,
  );
  seeder.describeAccounts();
}

main().catch((error: unknown) => {
  console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof Error && error.message.includes('not be found'))
    console.error('Did you run `npm run provision` first?');
  process.exit(1);
});
