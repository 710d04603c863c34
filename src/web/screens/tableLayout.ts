import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Spec 2.4 / 9: "table height is window height minus 105 px". The 105 px are the header, the tab bar
 * and the margins around the page, so a list page (filters, toolbar, table, pager) owns at most the
 * window less 105 px, and its rows get what is left of that once the rest is laid out. Where the shell
 * takes more (its header, tab bar and the content's padding above and below come to about 109 px), the
 * page takes less, so that the window itself never scrolls; with the tab bar off it is exactly 105.
 */
export const PAGE_OFFSET = 105;
/** Rows still shown when filters and a chart fill most of the window (the page scrolls then). */
const MIN_BODY = 200;

export interface TableLayout {
  /** The page's height: the window less 105 px, or less the shell's header and margins where they take more. */
  page?: number;
  /** The height of the table's scrolling body (antd scroll.y). */
  body?: number;
  /** The table's width, which virtual rows lay their columns out in. */
  width?: number;
  /** The width inside the page's padding: what the list (table or cards) is fitted to. */
  content?: number;
}

function measure(page: HTMLElement): TableLayout | undefined {
  // A kept-alive page in a tab not shown has no layout; it measures again when shown.
  if (page.offsetParent === null) return undefined;
  const pageStyle = getComputedStyle(page);
  const content = Math.floor(
    page.clientWidth - (parseFloat(pageStyle.paddingLeft) || 0) - (parseFloat(pageStyle.paddingRight) || 0),
  );
  const pageBox = page.getBoundingClientRect();
  // The shell's own margin below the page: a page that ends in it would scroll the window.
  const shell = page.closest('.ant-layout-content');
  const below = shell ? parseFloat(getComputedStyle(shell).paddingBottom) || 0 : 0;
  const chrome = Math.max(PAGE_OFFSET, pageBox.top + window.scrollY + below);
  const height = Math.floor(window.innerHeight - chrome);
  // Cards (a phone) have no table: only the page's height and width count.
  const table = page.querySelector(':scope > .ant-table-wrapper');
  if (!table) return { page: height, content };
  // Everything but the rows, measured where it is: filters that wrap to a second line, an alert, a
  // chart, the column headers above the body and the pager below it.
  const header = table.querySelector('.ant-table-header') ?? table.querySelector('.ant-table-thead');
  const grid = table.querySelector('.ant-table');
  if (!header || !grid) return { page: height, content };
  const bottom = pageBox.top + height - (parseFloat(pageStyle.paddingBottom) || 0);
  const pager = table.getBoundingClientRect().bottom - grid.getBoundingClientRect().bottom;
  const body = Math.max(MIN_BODY, Math.floor(bottom - header.getBoundingClientRect().bottom - pager));
  // Inside the container's borders: columns as wide as the bordered box would scroll sideways.
  const width = (table.querySelector('.ant-table-container') ?? grid).clientWidth;
  return { page: height, body, width, content };
}

/**
 * The height of a list page and of its table's body, measured after layout and again whenever the
 * page or the window changes size. Nothing measured depends on the body's own height, so setting it
 * settles at once. A guessed allowance for the rest (the old "− 180") scrolled the window by the
 * pager under a one-line filter form, and by more under a wrapped one.
 */
export function useTableLayout(page: RefObject<HTMLElement | null>): TableLayout {
  const [layout, setLayout] = useState<TableLayout>({});
  useLayoutEffect(() => {
    const update = () => {
      const next = page.current ? measure(page.current) : undefined;
      if (next)
        setLayout((prev) =>
          prev.page === next.page &&
          prev.body === next.body &&
          prev.width === next.width &&
          prev.content === next.content
            ? prev
            : next,
        );
    };
    update();
    // After the frame, not inside the observer's callback: a size set there would be observed again
    // in the same frame ("ResizeObserver loop" error).
    let frame = 0;
    const later = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(update);
    };
    const observer = new ResizeObserver(later);
    if (page.current) observer.observe(page.current);
    window.addEventListener('resize', later);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener('resize', later);
    };
  }, [page]);
  return layout;
}

/**
 * Columns for virtual rows, which are laid out by their widths alone: antd fills a wider table by
 * stretching every column in proportion, the selection and action columns too (a three-column screen
 * got a selection column half the table wide). Here only the field columns (keys without `$`) take
 * what the table leaves, in proportion to their widths.
 */
export function fillWidth<C extends { key?: unknown; width?: unknown }>(columns: C[], width: number): C[] {
  const widthOf = (c: C) => (typeof c.width === 'number' ? c.width : 0);
  const stretchable = (c: C) => typeof c.width === 'number' && !String(c.key).startsWith('$');
  const extra = width - columns.reduce((sum, c) => sum + widthOf(c), 0);
  const base = columns.filter(stretchable).reduce((sum, c) => sum + widthOf(c), 0);
  if (extra <= 0 || base === 0) return columns;
  let left = extra;
  const last = columns.findLastIndex(stretchable);
  return columns.map((c, i) => {
    if (!stretchable(c)) return c;
    const add = i === last ? left : Math.floor((extra * widthOf(c)) / base);
    left -= add;
    return { ...c, width: widthOf(c) + add };
  });
}
