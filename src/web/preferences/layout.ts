import Cookies from 'js-cookie';
import { proxy } from 'valtio';

/** Spec 3 app state: sidebar open or closed (cookie sidebarStatus 1/0), device, UI size (cookie size). */
export type UiSize = 'default' | 'medium' | 'small' | 'mini';
export const UI_SIZES: UiSize[] = ['default', 'medium', 'small', 'mini'];
/** Spec 4: mobile when the body is narrower than 992 px. */
export const MOBILE_WIDTH = 992;

const storedSize = Cookies.get('size') as UiSize | undefined;

/** The sidebar as the user last left it on a desk (the automatic closes of spec 4 are not remembered). */
export function rememberedSidebar(): boolean {
  return Cookies.get('sidebarStatus') !== '0';
}

export const layout = proxy({
  sidebarOpened: rememberedSidebar(),
  device: 'desktop' as 'desktop' | 'mobile',
  size: (storedSize && UI_SIZES.includes(storedSize) ? storedSize : 'medium') as UiSize,
});

export function setSidebar(opened: boolean, remember = true) {
  layout.sidebarOpened = opened;
  if (remember) Cookies.set('sidebarStatus', opened ? '1' : '0');
}

export function setSize(size: UiSize) {
  layout.size = size;
  Cookies.set('size', size);
}

export function isMobileWidth(width: number) {
  return width < MOBILE_WIDTH;
}
