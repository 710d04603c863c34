import { createElement, lazy, useState, type ComponentType } from 'react';

/**
 * React.lazy that renders at once when its code is already here (app/preload.ts fetched it while the user
 * typed). A plain lazy component suspends on its first render even then, and React holds a Suspense
 * boundary's content back until 300 ms after the last one it revealed: after sign-in, the shell and
 * then the dashboard each waited, a quarter of a second of blank page apiece.
 */
export function lazyCode<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // Asked again next time; the lazy that rendered it reports the failure.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(preload);
  function LazyCode(props: P) {
    // Each use keeps the kind it began with: switching from the lazy to the loaded one would remount it.
    const [Shown] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(Shown, props);
  }
  return Object.assign(LazyCode, { preload });
}
