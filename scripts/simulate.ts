import { Client } from 'node-appwrite';
import { adminEnv, numberArg, parseArgs } from './lib/env.ts';
import { Simulator } from './lib/simulator.ts';
import { progressLine } from './lib/traffic-rate.ts';

/**
 * `npm run simulate -- --rate R --duration D [--checkout] [--no-batch] [--in-flight N] [--quiet]
 * [--progress]`: live traffic (new orders, claims, status changes, notes). With `--checkout`, new
 * orders come from scripted customers through the real path: the checkout function, a card
 * payment at Stripe (the local double by default), and the stripe-webhook function marking them
 * paid. `--no-batch`: every change in a transaction of its own (by default the changes due at the
 * same moment share one). `--quiet`: no line a second of running counts.
 * `--progress`: each second, a line `progress at=<epoch ms> events=<changes made>` for a harness
 * that measures the rate over a window of its own (bench:ui's steady phase).
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const rate = numberArg(args, 'rate', 5, { min: 0.1, max: 20_000 });
  const duration = numberArg(args, 'duration', 60, { min: 1, max: 86_400 });
  const quiet = args.has('quiet');
  const progress = args.has('progress');
  const checkout = args.has('checkout');
  const env = adminEnv();
  const client = new Client()
    .setEndpoint(env.endpoint)
    .setProject(env.projectId)
    .setKey(env.apiKey);
  const simulator = new Simulator(client, numberArg(args, 'seed', Date.now()), 'full', {
    checkout,
    batch: !args.has('no-batch'),
  });
  await simulator.prepare();
  console.log(
    `Simulating ${rate} events/s for ${duration} s against ${env.endpoint}${checkout ? ' (new orders through checkout, Stripe and the webhook)' : ''}`,
  );
  const maxInFlight = numberArg(args, 'in-flight', 512, { min: 1, max: 10_000 });
  const stats = await simulator.run(
    rate,
    duration,
    (running, inFlight) => {
      if (progress) console.log(progressLine({ at: Date.now(), events: running.events }));
      if (!quiet)
        console.log(
          `  t=${running.seconds.toFixed(0)}s events=${running.events} (${Math.round(running.events / Math.max(running.seconds, 0.001))}/s) in-flight=${inFlight} errors=${running.errors}`,
        );
    },
    maxInFlight,
  );
  const batches = simulator.transactions;
  console.log(
    `Done: ${stats.events} events in ${stats.seconds.toFixed(1)} s (${(stats.events / stats.seconds).toFixed(1)}/s; new ${stats.byKind['new-order']}, claims ${stats.byKind.claim}, status ${stats.byKind.advance}, notes ${stats.byKind.note}; conflicts ${stats.conflicts}; errors ${stats.errors})${batches ? `; ${batches.parts} writes in ${batches.transactions} transactions (${batches.split} split after a refusal)` : ''}`,
  );
  if (stats.errors > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`Simulation failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
