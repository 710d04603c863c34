import { Drawer, Switch, Tooltip } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useSnapshot } from 'valtio';
import { settings, THEME_PRESETS } from '../preferences/settings';
import { useT } from '../i18n';

/** Spec 2.3: theme colour (eight presets), tags view, fixed header, sidebar logo; applied at once and kept. */
export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const s = useSnapshot(settings);
  const toggle = (key: 'tagsView' | 'fixedHeader' | 'sidebarLogo', label: string) => (
    <div className="settings-row">
      <span>{label}</span>
      <Switch checked={s[key]} onChange={(on) => (settings[key] = on)} aria-label={label} />
    </div>
  );
  return (
    <Drawer title={t('shell.settings')} open={open} onClose={onClose} size={280} className="settings-drawer">
      <div className="settings-row">
        <span>{t('settings.theme')}</span>
      </div>
      <div className="theme-presets" role="radiogroup" aria-label={t('settings.theme')}>
        {THEME_PRESETS.map((color) => (
          <Tooltip key={color} title={color}>
            <button
              type="button"
              role="radio"
              aria-checked={s.theme === color}
              aria-label={color}
              className="theme-swatch"
              style={{ background: color }}
              onClick={() => (settings.theme = color)}
            >
              {s.theme === color && <CheckOutlined />}
            </button>
          </Tooltip>
        ))}
      </div>
      {toggle('tagsView', t('settings.tagsView'))}
      {toggle('fixedHeader', t('settings.fixedHeader'))}
      {toggle('sidebarLogo', t('settings.sidebarLogo'))}
    </Drawer>
  );
}
