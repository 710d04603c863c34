import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { KeepAliveOutlet, useViewPath } from '../../src/web/shell/KeepAliveOutlet';
import { addView, closeView, refreshView, resetTags } from '../../src/web/shell/tags/tagsStore';

function Notes() {
  const path = useViewPath();
  return <input aria-label={`notes ${path}`} defaultValue="" />;
}

function Shell({ noCachePaths }: { noCachePaths: string[] }) {
  const { pathname } = useLocation();
  return <KeepAliveOutlet noCache={noCachePaths.includes(pathname)} />;
}

function setup(noCachePaths: string[] = []) {
  resetTags();
  for (const p of ['/a', '/b', '/entry']) addView({ path: p, title: { 'zh-CN': p, 'en-US': p } });
  const router = createMemoryRouter(
    [{ path: '/', element: <Shell noCachePaths={noCachePaths} />, children: [{ path: '*', element: <Notes /> }] }],
    { initialEntries: ['/a'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const type = (path: string, value: string) =>
  fireEvent.change(screen.getByLabelText(`notes ${path}`), { target: { value } });
const valueOf = (path: string) => (screen.getByLabelText(`notes ${path}`) as HTMLInputElement).value;

afterEach(() => cleanup());

describe('kept-alive views (spec 2.3)', () => {
  it('keeps what was typed on a page while another tab is shown', async () => {
    const router = setup();
    type('/a', '血常规');
    await act(() => router.navigate('/b'));
    type('/b', '尿常规');
    await act(() => router.navigate('/a'));
    expect(valueOf('/a')).toBe('血常规');
    await act(() => router.navigate('/b'));
    expect(valueOf('/b')).toBe('尿常规');
  });

  it('builds a noCache page anew on every visit', async () => {
    const router = setup(['/entry']);
    await act(() => router.navigate('/entry'));
    type('/entry', '草稿');
    await act(() => router.navigate('/a'));
    await act(() => router.navigate('/entry'));
    expect(valueOf('/entry')).toBe('');
  });

  it('forgets a page when its tab closes, and rebuilds it on Refresh', async () => {
    const router = setup();
    type('/a', '保留');
    await act(() => router.navigate('/b'));
    await act(async () => {
      closeView('/a');
    });
    await act(() => router.navigate('/a'));
    expect(valueOf('/a')).toBe('');
    type('/a', '刷新前');
    await act(async () => refreshView('/a'));
    expect(valueOf('/a')).toBe('');
  });
});
