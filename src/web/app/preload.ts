import { lazyCode } from '../pages/lazyCode';
import { DashboardPage } from '../pages/registry';

/** antd's root, the shell behind sign-in and the menu pages: loaded after sign-in, or while the user types. */
export const AntdRoot = lazyCode(() => import('./AntdRoot'));
export const SignedIn = lazyCode(() => import('./SignedInRoutes'));
export const MenuPage = lazyCode(() => import('../pages/MenuPage'));

/**
 * The code the first page after sign-in needs (antd's root, the shell, the menu page and the
 * dashboard), fetched while the user types their password, so that signing in waits only for the
 * sign-in and page-entry calls, and the pages render at once (lazyCode.ts).
 */
let asked: Promise<unknown> | undefined;

export function preloadSignedIn(): Promise<unknown> {
  asked ??= Promise.all([AntdRoot.preload(), SignedIn.preload(), MenuPage.preload(), DashboardPage.preload()]).then(
    // Started, not awaited: signing in never waits for the rehearsal, and one that fails to load is
    // only a rehearsal missed.
    () => void warmAntd().catch(() => undefined),
    () => {
      // A chunk that failed now is asked for again when its route renders, which reports the failure.
      asked = undefined;
    },
  );
  return asked;
}

let release: (() => void) | undefined;
/** The shell has rendered: a rehearsal whose code comes later has nothing left to warm. */
let shellRendered = false;

/**
 * antd's first render after sign-in, rehearsed while the user types (warmUp.tsx): its theme tokens
 * derived and the shell's and dashboard's antd code run once, 35-70 ms less between the sign-in answer
 * and a usable dashboard (bench web, and alternating sign-ins with and without it).
 */
async function warmAntd() {
  const { warmUp } = await import('./warmUp');
  if (!shellRendered) release ??= warmUp();
}

/** Called when the signed-in shell has rendered: the warm-up tree goes. */
export function releaseWarmUp() {
  shellRendered = true;
  release?.();
  release = undefined;
}
