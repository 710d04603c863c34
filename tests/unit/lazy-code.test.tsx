import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, useEffect } from 'react';
import { lazyCode } from '../../src/web/pages/lazyCode';

afterEach(cleanup);

/** A page module whose arrival the test decides, counting how often its page is mounted. */
function pageModule() {
  const mounts = { count: 0 };
  let arrive = () => undefined as void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  function Page({ name }: { name: string }) {
    useEffect(() => {
      mounts.count++;
    }, []);
    return <p>{name}</p>;
  }
  const load = () => arrived.then(() => ({ default: Page }));
  return { mounts, arrive, load };
}

describe('code loaded on demand', () => {
  it('renders a preloaded page at once, with no fallback in between', async () => {
    const { arrive, load } = pageModule();
    const Lazy = lazyCode(load);
    arrive();
    await Lazy.preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Lazy name="首页" />
      </Suspense>,
    );
    // Synchronously after render: a plain lazy component would show the fallback here.
    expect(screen.getByText('首页')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('shows the fallback until the code arrives, then keeps the page mounted once across re-renders', async () => {
    const { mounts, arrive, load } = pageModule();
    const Lazy = lazyCode(load);
    const view = render(
      <Suspense fallback={<p>loading</p>}>
        <Lazy name="一" />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => arrive());
    expect(await screen.findByText('一')).toBeTruthy();
    view.rerender(
      <Suspense fallback={<p>loading</p>}>
        <Lazy name="二" />
      </Suspense>,
    );
    expect(screen.getByText('二')).toBeTruthy();
    expect(mounts.count).toBe(1);
  });

  it('asks for the code once however often it is preloaded', async () => {
    let asked = 0;
    const Lazy = lazyCode(async () => {
      asked++;
      return { default: () => <p>x</p> };
    });
    await Promise.all([Lazy.preload(), Lazy.preload()]);
    await Lazy.preload();
    expect(asked).toBe(1);
  });
});
