/**
 * The code the first page after sign-in needs (antd's root, the shell, the menu page and the
 * dashboard), fetched while the user types their password, so that signing in waits only for the
 * sign-in and page-entry calls. Vite makes these the same chunks routes.tsx loads lazily.
 */
let asked: Promise<unknown> | undefined;

export function preloadSignedIn(): Promise<unknown> {
  asked ??= Promise.all([
    import('./AntdRoot'),
    import('./SignedInRoutes'),
    import('../pages/MenuPage'),
    import('../dashboard/DashboardPage'),
  ]).catch(() => {
    // A chunk that failed now is asked for again when its route renders, which reports the failure.
    asked = undefined;
  });
  return asked;
}
