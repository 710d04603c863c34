/**
 * `npm run bench`: measures speed against a real server process and prints the figures. Nothing here
 * passes or fails; the numbers are for people (and for the issues that set goals).
 * `npm run bench -- screens resources` runs only the benches whose key is named.
 */
import { authBench } from './auth';
import { webBench } from './web';
import { resourceBench } from './resources';
import { workflowBench } from './workflow';
import { screenBench } from './screens';
import { engineBenchmark } from './engine';
import { specimensBench } from './specimens';
import { resultsBench } from './results';
import { chargesBench } from './charges';
import { statisticsBench } from './statistics';
import { timersBench } from './timers';
import { throughputBench } from './throughput';
import { demoBench } from './demo';
import buildServer from '../tests/support/build-server';

const benches = {
  auth: authBench,
  web: webBench,
  screens: screenBench,
  resources: resourceBench,
  workflow: workflowBench,
  engine: engineBenchmark,
  specimens: specimensBench,
  results: resultsBench,
  charges: chargesBench,
  statistics: statisticsBench,
  timers: timersBench,
  throughput: throughputBench,
  demo: demoBench,
};

async function main() {
  // The benches' servers run the one-file build (tests/support/server.ts), made here from the sources,
  // and make no demo month in the background (npm start's default) unless asked: it would share the CPU
  // with what is measured.
  buildServer();
  process.env.LIMS_DEMO_MONTH ??= '0';
  const chosen = process.argv.slice(2).filter((k): k is keyof typeof benches => k in benches);
  for (const key of chosen.length > 0 ? chosen : (Object.keys(benches) as (keyof typeof benches)[])) {
    const bench = benches[key];
    console.log(`\n## ${bench.title}`);
    const rows = await bench.run();
    for (const [label, value] of rows) console.log(`${label.padEnd(56)} ${value}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
