import { useState } from 'react';
import { Button, Modal, Select, Table } from 'antd';
import { useSnapshot } from 'valtio';
import { errorMessage, getResult, http, type Result } from '../api/http';
import { feedback, notify } from '../feedback/feedback';
import { userState } from '../auth/user';
import { i18n, useT } from '../i18n';
import type { ScreenSchema } from '../../shared/screens/fields';
import { listColumns } from '../../shared/screens/fields';
import type { ScreenRecord } from './dataProvider';
import { fieldValue } from './fieldViews';

interface Props {
  screen: ScreenSchema;
  /** On a public-platform route a lab lists the base organisation's rows: it may take them, not confirm its own. */
  basic?: boolean;
  selected: number[];
  records: ScreenRecord[];
  onDone: () => void;
}

/**
 * The public-data button of a public resource (spec 2.4, 6): the base organisation distributes, a main
 * lab synchronises, other labs import; only-lab users see nothing. Rows whose source changed can be
 * confirmed (syncFlag 2).
 */
export function PublicDataActions({ screen, basic = false, selected, records, onDone }: Props) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const { info, isOnlyLab, isMainLab } = useSnapshot(userState);
  const [dialog, setDialog] = useState<'distribute' | 'import'>();
  const [labs, setLabs] = useState<{ value: number; label: string }[]>([]);
  const [chosen, setChosen] = useState<number[]>([]);
  const [offered, setOffered] = useState<ScreenRecord[]>([]);
  const [busy, setBusy] = useState(false);
  if (!screen.resource.publicData || isOnlyLab === 1 || !info) return null;
  const orgId = info.organization.id;
  const base = `/api/resources/${screen.resource.name}`;

  const call = async (path: string, body?: object) => {
    setBusy(true);
    try {
      const { data } = await http.post<Result<{ copied: number }>>(`${base}/${path}`, body ?? {});
      notify.success(t('publicData.done', { n: data.resultObject.copied }));
      setDialog(undefined);
      setChosen([]);
      onDone();
    } catch (e) {
      notify.error(errorMessage(e, t('publicData.failed')));
    } finally {
      setBusy(false);
    }
  };

  const openDistribute = async () => {
    if (selected.length === 0) return notify.warning(t('screen.selectFirst'));
    const orgs = await getResult<{ id: number; name: string }[]>('/api/organization/all');
    setLabs(orgs.filter((o) => o.id !== orgId).map((o) => ({ value: o.id, label: o.name })));
    setDialog('distribute');
  };

  /** Sync copies every public record the lab lacks: far-reaching, so it asks first. */
  const confirmSync = () =>
    feedback.modal.confirm({
      title: t('publicData.sync'),
      content: t('publicData.syncConfirm'),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onOk: () => call('sync'),
    });

  const openImport = async () => {
    const page = await getResult<{ records: ScreenRecord[] }>(`${base}/public`, { page: 1, size: 500 });
    setOffered(page.records);
    setDialog('import');
  };

  const flagged = records.filter((r) => selected.includes(r.id) && r.syncFlag === 2).map((r) => r.id);
  const main = orgId === 0 ? 'publicData.distribute' : isMainLab === 1 ? 'publicData.sync' : 'publicData.import';
  return (
    <>
      <Button
        loading={busy}
        onClick={() => void (orgId === 0 ? openDistribute() : isMainLab === 1 ? confirmSync() : openImport())}
      >
        {t(main)}
      </Button>
      {orgId !== 0 && !basic && (
        <Button
          onClick={() =>
            flagged.length === 0
              ? notify.warning(t('screen.selectFirst'))
              : void call('confirmUpdate', { ids: flagged })
          }
        >
          {t('publicData.confirmUpdate')}
        </Button>
      )}
      <Modal
        open={dialog === 'distribute'}
        title={t('publicData.distribute')}
        onCancel={() => setDialog(undefined)}
        confirmLoading={busy}
        onOk={() =>
          chosen.length === 0
            ? notify.warning(t('publicData.noLab'))
            : void call('distribute', { ids: selected.join(','), orgIds: chosen.join(',') })
        }
      >
        <Select
          mode="multiple"
          style={{ width: '100%' }}
          options={labs}
          value={chosen}
          onChange={setChosen}
          placeholder={t('publicData.chooseLabs')}
        />
      </Modal>
      <Modal
        open={dialog === 'import'}
        width={900}
        title={t('publicData.import')}
        onCancel={() => setDialog(undefined)}
        confirmLoading={busy}
        onOk={() =>
          chosen.length === 0 ? notify.warning(t('screen.selectFirst')) : void call('importPublic', { ids: chosen })
        }
      >
        <Table<ScreenRecord>
          rowKey="id"
          size="small"
          dataSource={offered}
          pagination={false}
          scroll={{ y: 400 }}
          rowSelection={{ selectedRowKeys: chosen, onChange: (keys) => setChosen(keys as number[]) }}
          columns={listColumns(screen).map((f) => ({
            key: f.key,
            title: f.label[locale],
            render: (_: unknown, r: ScreenRecord) => fieldValue(f, r, locale),
          }))}
        />
      </Modal>
    </>
  );
}
