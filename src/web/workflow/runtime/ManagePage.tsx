import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Input, Select, Space, Table, Tabs, Tag, type TableColumnsType } from 'antd';
import { useSnapshot } from 'valtio';
import { errorMessage } from '../../api/http';
import { userState } from '../../auth/user';
import { INSTANCE_STATUSES } from '../../../shared/workflow/instanceStatus';
import { i18n } from '../../i18n';
import { useConfirmDelete } from '../../screens/list/useConfirmDelete';
import { useListQuery } from '../../screens/list/useListQuery';
import { useSave } from '../../screens/list/useSave';
import { rt } from './i18n';
import {
  deleteInstance,
  deployments as loadDeployments,
  instances as loadInstances,
  resumeInstance,
  suspendInstance,
  type DeploymentRow,
  type InstanceRow,
  type InstanceStatus,
} from './api';
import { statusOf, time } from './results';
import { StartDialog } from './StartDialog';
import './runtime.css';

const TraceDialog = lazy(() => import('./TraceDialog'));

const PAGE_SIZE = 50;

/** The instance list's query: status, business key, page. */
interface InstanceQuery {
  status?: InstanceStatus;
  businessKey?: string;
  page: number;
}

const askInstances = (query: InstanceQuery) => loadInstances({ ...query, size: PAGE_SIZE });
const askDeployments = () => loadDeployments().then((records) => ({ records }));

/**
 * 流程管理 (spec 2.1 /activiti/manage): the organisation's deployments and process instances, each
 * instance with its trace; an admin suspends, resumes and deletes instances; anyone who may read
 * models starts one (发起流程).
 */
export default function ManagePage() {
  useSnapshot(i18n);
  const { roles } = useSnapshot(userState);
  const admin = roles.includes('admin');
  const deployments = useListQuery<object, DeploymentRow>({ initial: {}, load: askDeployments });
  const list = useListQuery<InstanceQuery, InstanceRow>({ initial: { page: 1 }, load: askInstances });
  const [tracing, setTracing] = useState<string>();
  const [starting, setStarting] = useState<{ chosen?: string }>();
  const [businessKey, setBusinessKey] = useState('');

  /** Both lists again, after every change made on the page. */
  const reloadAll = () => {
    deployments.reload();
    list.reload();
  };

  /** Suspend, resume: the server's words on success, then both lists again. */
  const writes = useSave(reloadAll);
  const act = (run: () => Promise<string>) => writes.save(run, rt('操作失败'));

  /** Spec 8's delete dialogue: 警告 / 此操作将永久删除该流程, 是否继续? / 删除成功, 删除失败, 已取消删除. */
  const confirmDelete = useConfirmDelete({
    remove: ([id]: string[]) => deleteInstance(id!),
    texts: {
      title: rt('警告'),
      content: rt('此操作将永久删除该流程, 是否继续?'),
      ok: rt('确定'),
      cancel: rt('取消'),
      done: rt('删除成功'),
      cancelled: rt('已取消删除'),
      failed: rt('删除失败'),
    },
    reload: reloadAll,
  });

  const deploymentColumns: TableColumnsType<DeploymentRow> = [
    { key: 'key', title: rt('流程标识'), dataIndex: 'key' },
    { key: 'name', title: rt('流程名称'), dataIndex: 'name' },
    { key: 'version', title: rt('版本'), dataIndex: 'version', width: 80 },
    { key: 'org', title: rt('所属机构'), dataIndex: 'orgName' },
    { key: 'deployedAt', title: rt('部署时间'), width: 170, render: (_, d) => time(d.deployedAt) },
    { key: 'deployedBy', title: rt('部署人'), dataIndex: 'deployedBy', width: 110 },
    { key: 'running', title: rt('运行中实例'), dataIndex: 'running', width: 100 },
    {
      key: 'actions',
      title: rt('操作'),
      width: 110,
      render: (_, d) => (
        <Button size="small" type="link" onClick={() => setStarting({ chosen: d.id })}>
          {rt('发起流程')}
        </Button>
      ),
    },
  ];

  const instanceColumns: TableColumnsType<InstanceRow> = [
    { key: 'process', title: rt('流程'), render: (_, r) => `${r.processName} (${r.processKey} v${r.version})` },
    { key: 'businessKey', title: rt('业务编号'), dataIndex: 'businessKey', width: 140 },
    {
      key: 'status',
      title: rt('状态'),
      width: 90,
      render: (_, r) => <Tag color={statusOf(r.status).color}>{statusOf(r.status).label}</Tag>,
    },
    { key: 'startedBy', title: rt('发起人'), dataIndex: 'startedBy', width: 110 },
    { key: 'startedAt', title: rt('发起时间'), width: 170, render: (_, r) => time(r.startedAt) },
    { key: 'tasks', title: rt('当前任务'), render: (_, r) => r.currentTasks.join('、') },
    {
      key: 'actions',
      title: rt('操作'),
      width: 200,
      render: (_, r) => (
        <Space size={4}>
          <Button size="small" type="link" onClick={() => setTracing(r.id)}>
            {rt('流程追踪')}
          </Button>
          {admin && r.status === 'running' && (
            <Button size="small" type="link" onClick={() => void act(() => suspendInstance(r.id))}>
              {rt('挂起')}
            </Button>
          )}
          {admin && r.status === 'suspended' && (
            <Button size="small" type="link" onClick={() => void act(() => resumeInstance(r.id))}>
              {rt('激活')}
            </Button>
          )}
          {admin && !r.parentId && (
            <Button size="small" type="link" danger onClick={() => confirmDelete([r.id])}>
              {rt('删除')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const statusOptions = [
    { value: '', label: rt('全部') },
    ...INSTANCE_STATUSES.map((s) => ({ value: s, label: statusOf(s).label })),
  ];
  const instancesTab = (
    <>
      <Space className="manage-toolbar" wrap>
        <Select
          value={list.query.status ?? ''}
          options={statusOptions}
          style={{ width: 120 }}
          onChange={(status: string) => list.refine({ status: (status || undefined) as InstanceStatus | undefined })}
        />
        <Input.Search
          placeholder={rt('业务编号')}
          allowClear
          value={businessKey}
          onChange={(e) => setBusinessKey(e.target.value)}
          onSearch={(v) => list.refine({ businessKey: v.trim() || undefined })}
          enterButton={rt('查询')}
          style={{ width: 280 }}
        />
        <Button type="primary" onClick={() => setStarting({})} data-testid="start-process">
          {rt('发起流程')}
        </Button>
      </Space>
      {list.error !== undefined && <Alert type="error" showIcon title={errorMessage(list.error, rt('查询失败'))} />}
      <Table<InstanceRow>
        rowKey="id"
        size="small"
        bordered
        columns={instanceColumns}
        dataSource={list.records}
        data-testid="process-instances"
        pagination={{
          current: list.query.page,
          pageSize: PAGE_SIZE,
          total: list.total,
          onChange: (page) => list.setPage(page),
        }}
      />
    </>
  );

  return (
    <div className="workflow-manage">
      <Tabs
        items={[
          { key: 'instances', label: rt('流程实例'), children: instancesTab },
          {
            key: 'deployments',
            label: rt('部署列表'),
            children: (
              <>
                {deployments.error !== undefined && (
                  <Alert type="error" showIcon title={errorMessage(deployments.error, rt('查询失败'))} />
                )}
                <Table<DeploymentRow>
                  rowKey="id"
                  size="small"
                  bordered
                  columns={deploymentColumns}
                  dataSource={deployments.records}
                  data-testid="deployments"
                  pagination={{ pageSize: 50, hideOnSinglePage: true }}
                />
              </>
            ),
          },
        ]}
      />
      {starting && (
        <StartDialog
          deployments={deployments.records}
          chosen={starting.chosen}
          onClose={() => setStarting(undefined)}
          onStarted={() => {
            setStarting(undefined);
            reloadAll();
          }}
        />
      )}
      {tracing && (
        <Suspense fallback={null}>
          <TraceDialog instanceId={tracing} onClose={() => setTracing(undefined)} />
        </Suspense>
      )}
    </div>
  );
}
