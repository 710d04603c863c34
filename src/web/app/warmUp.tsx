import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import {
  Alert,
  Avatar,
  Breadcrumb,
  Button,
  Card,
  ConfigProvider,
  Descriptions,
  Dropdown,
  Layout,
  Menu,
  Spin,
  Statistic,
  Tag,
  Tooltip,
} from 'antd';
import { snapshot } from 'valtio';
import { i18n } from '../i18n';
import { layout } from '../preferences/layout';
import { settings } from '../preferences/settings';
import { antdConfig } from './AntdRoot';

/**
 * The antd components of the shell and the dashboard, once each, as the first page after sign-in draws
 * them. Rendered where no one sees it, they make antd derive its theme tokens for the user's colour and
 * size, and have the browser compile their code, before the sign-in answer comes.
 */
function WarmTree() {
  const item = { key: 'item', label: 'item' };
  return (
    <Layout>
      <Layout.Sider>
        <Menu mode="inline" items={[{ key: 'section', label: 'section', children: [item] }, item]} />
      </Layout.Sider>
      <Layout>
        <Layout.Header>
          <Breadcrumb items={[{ title: 'section' }, { title: 'page' }]} />
          <Dropdown menu={{ items: [item] }}>
            <Avatar>user</Avatar>
          </Dropdown>
          <Tooltip title="tip">
            <Button type="link" size="small">
              button
            </Button>
          </Tooltip>
        </Layout.Header>
        <Layout.Content>
          <Alert type="warning" title="alert" />
          <Card size="small" title="card" extra={<Button size="small">button</Button>}>
            <Statistic title="count" value={1} />
            <Tag color="red">tag</Tag>
            <Descriptions items={[{ key: 'key', label: 'label', children: 'value' }]} />
            <Spin />
          </Card>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

/**
 * Renders the warm-up tree in a hidden element, in the background (a transition yields to the user's
 * typing). Answers a release, called once the real shell has rendered: antd forgets the tokens derived
 * for a tree when its last user unmounts, so this tree stays until the shell uses them.
 */
export function warmUp(): () => void {
  const host = document.createElement('div');
  host.hidden = true;
  host.setAttribute('aria-hidden', 'true');
  host.dataset.warmUp = '';
  document.body.append(host);
  const root = createRoot(host);
  const config = antdConfig(snapshot(i18n).locale, snapshot(layout).size, snapshot(settings).theme);
  startTransition(() =>
    root.render(
      <ConfigProvider {...config}>
        <WarmTree />
      </ConfigProvider>,
    ),
  );
  return () =>
    setTimeout(() => {
      root.unmount();
      host.remove();
    });
}
