import { buildApp } from './app.js';
import { readConfig } from './kernel/config.js';
import { LabClock } from './kernel/clock.js';
import { monthToMake, offerDemoMonth, type Running } from './demo/background.js';
import { monthSizeOf } from './demo/size.js';
import { PeopleFirst } from './demo/peopleFirst.js';
import { PushHub } from './kernel/push/hub.js';
import { prepare } from './startup.js';
import { stopWithDeadline } from './shutdown.js';
import { DEMO_USERS } from './users/demo.js';
import { warmPasswordThreads } from './kernel/identity/passwords.js';

/** `npm start`: open the database, bring it up to date, serve app + API on one port. */
async function main() {
  const config = readConfig();
  // A malformed LIMS_DEMO_MONTH stops the start with its message, before anything is written.
  const demoMonth = config.seedDemo ? monthSizeOf(config.demoMonth) : undefined;
  const { db, screens } = await prepare(config);
  screens.watch();
  const push = await PushHub.open(db, { databaseUrl: config.databaseUrl });
  const clock = new LabClock(() => new Date());
  const app = await buildApp({ db, config, now: clock.wallNow, clock, screens, push });
  // A month to make gives way to people, their requests counted from the first; a lab whose month is
  // made (most starts) counts nothing.
  const people = demoMonth && (await monthToMake(db)) ? new PeopleFirst().watch(app) : undefined;

  // PORT=0 picks a free port (tests); the line below prints the one actually bound.
  const url = await app.listen({ port: config.port, host: config.host });
  // Behind the listening server: a sign-in meanwhile waits for one check at most; a warm-up that
  // fails leaves the first sign-ins slower, nothing else.
  void warmPasswordThreads().catch(() => undefined);

  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite at ${config.dataDir}`;
  console.log(`\nLIMS is ready at ${url}  (database: ${where})`);
  if (config.seedDemo) {
    console.log(
      `Demo logins (password ${process.env.LIMS_DEMO_PASSWORD ? 'from LIMS_DEMO_PASSWORD' : config.demoPassword}):`,
    );
    for (const u of DEMO_USERS) console.log(`  ${u.account.padEnd(10)} ${u.role.padEnd(6)} org ${u.orgId}  ${u.name}`);
  }
  // The demo month runs behind the listening server: the app is usable while it fills.
  let month: Running | undefined;
  if (demoMonth && people)
    month = offerDemoMonth({
      app,
      clock,
      db,
      password: config.demoPassword,
      size: demoMonth,
      log: console.log,
      turn: people.turn,
    });

  // Requests in flight complete first, within the grace (and background work such as the workflow
  // recovery stops); then the database is closed so nothing is half-written.
  const stop = stopWithDeadline(app, config.shutdownGraceSeconds, async () => {
    screens.close();
    await push.close();
    await db.close();
  });
  // A demo month under way pauses first (after its step in progress), to go on at the next start.
  const stopAll = async (signal: string) => {
    await month?.stop();
    await stop(signal);
  };
  process.on('SIGTERM', () => void stopAll('SIGTERM'));
  process.on('SIGINT', () => void stopAll('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
