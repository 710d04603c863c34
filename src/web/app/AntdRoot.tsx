import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider, theme, type ConfigProviderProps, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { useSnapshot } from 'valtio';
import { i18n } from '../i18n';
import type { Locale } from '../../shared/i18n/messages';
import { layout, type UiSize } from '../preferences/layout';
import { settings } from '../preferences/settings';
import { FeedbackBridge } from '../feedback/FeedbackBridge';
import { readablePrimary } from './readableColour';
import { releaseWarmUp } from './preload';
// antd's components styled by its own prebuilt stylesheet, before ours so that ours come after it.
import 'antd/dist/antd.css';
import './global.css';

/** Spec size names onto antd: default → large, medium → middle, small → small, mini → small and compact. */
const SIZE: Record<UiSize, 'large' | 'middle' | 'small'> = {
  default: 'large',
  medium: 'middle',
  small: 'small',
  mini: 'small',
};

/** People who asked their system for less motion get none: antd's zooms, fades and slides are off. */
const reducedMotion =
  typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

/** The ConfigProvider's props for a locale, size and theme colour; the warm-up tree (warmUp.tsx) takes them too. */
export function antdConfig(locale: Locale, size: UiSize, primary: string): ConfigProviderProps {
  return { locale: locale === 'zh-CN' ? zhCN : enUS, componentSize: SIZE[size], theme: themeOf(size, primary) };
}

let made: { key: string; theme: ThemeConfig } | undefined;

/**
 * The same theme object while size and colour stay: antd derives its tokens again for a new one (~40 ms),
 * and those the warm-up tree had it derive are kept for the shell only if they are the shell's.
 */
function themeOf(size: UiSize, primary: string): ThemeConfig {
  const key = `${size} ${primary}`;
  if (made?.key !== key) made = { key, theme: newTheme(size, primary) };
  return made.theme;
}

function newTheme(size: UiSize, primary: string): ThemeConfig {
  return {
    // antd's components take their styles from its stylesheet above (its CSS variables carry the
    // tokens below) instead of writing them in the browser as each kind first renders: that was a
    // third of the script time between the sign-in click and a usable dashboard, and work in every
    // render of every antd component (a keystroke's re-render of its input included).
    zeroRuntime: true,
    // Text colours antd makes faint (placeholders, descriptions, breadcrumbs) raised to 4.5:1 on white,
    // and the theme colour darkened as far as white text on it needs (axe, issue 23).
    token: {
      colorPrimary: readablePrimary(primary),
      colorLink: readablePrimary(primary),
      colorError: '#cf1322',
      // Warning and success text (a designer's lint header, Typography type="warning"/"success") in
      // antd's gold-9 and green-8: its defaults are 2.9:1 and 3.5:1 on white.
      colorWarningText: '#874d00',
      colorSuccessText: '#237804',
      colorTextPlaceholder: 'rgba(0, 0, 0, 0.58)',
      colorTextDescription: 'rgba(0, 0, 0, 0.62)',
      colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
      colorTextQuaternary: 'rgba(0, 0, 0, 0.58)',
      motion: !reducedMotion,
    },
    algorithm: size === 'mini' ? theme.compactAlgorithm : theme.defaultAlgorithm,
  };
}

/** antd with the user's locale, size and theme colour around every page after sign-in. */
export default function AntdRoot({ children }: { children: ReactNode }) {
  const { locale } = useSnapshot(i18n);
  const { size } = useSnapshot(layout);
  const { theme: primary } = useSnapshot(settings);
  // The hidden tree that warmed antd up while the user typed (warmUp.tsx) has done its work.
  useEffect(releaseWarmUp, []);
  return (
    <ConfigProvider {...antdConfig(locale, size, primary)}>
      {/* Pushed alerts stay 30 s (spec 9); a run of one title is one notice (push/alertRuns.ts), and
          notices of different titles pile into one stack from the second on, which opens on hover. */}
      <AntApp message={{ maxCount: 3 }} notification={{ stack: { threshold: 1 } }}>
        <FeedbackBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}
