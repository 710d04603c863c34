import type { ModalProps } from 'antd';

/**
 * A dialog that fits the window (issue 24): near the top, with a body that scrolls inside the window's
 * height, so its 确定 / 取消 stay on screen at 1366×768 and 1440×900 however many fields the form has.
 * CHROME is what the dialog needs besides its body: the gaps above and below, its padding, the title
 * row and the button row.
 */
const TOP = 24;
const CHROME = 184;

export const dialogFit: Pick<ModalProps, 'style' | 'styles'> = {
  style: { top: TOP, paddingBottom: 0 },
  styles: { body: { maxHeight: `calc(100dvh - ${CHROME}px)`, overflowY: 'auto', overflowX: 'hidden' } },
};
