import { useEffect, useState } from 'react';
import { Alert, Drawer, Spin, Timeline, Typography } from 'antd';
import type { ScreenSchema } from '../../shared/screens/fields';
import { errorMessage } from '../api/http';
import { useT, type UiKey } from '../i18n';
import type { ShownEvent } from '../../shared/lifecycle/events';
import { dataProvider, type ScreenRecord } from './dataProvider';

/** What a step was, in the user's language: a transition as its lifecycle names it, else the kind of step. */
function title(e: ShownEvent, t: ReturnType<typeof useT>): string {
  if (e.kind === 'transition') return e.name === 'create' ? t('event.create') : (e.label ?? e.name);
  if (e.kind === 'workflow') return t(`event.workflow.${e.name}` as UiKey);
  if (e.kind === 'task') return `${t('event.task')} · ${e.name}`;
  if (e.kind === 'print') return t('event.print');
  return e.label ?? e.name;
}

/** Why, where and what else: what the step was given (a reason), the handover, the process, the result. */
function detail(e: ShownEvent, t: ReturnType<typeof useT>): string {
  const d = e.details;
  const given = (e.inputs ?? []).map((input) => t('event.input', input));
  const told = ['handoverNo', 'processName', 'reason', 'result']
    .map((k) => d[k])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  return [...given, ...told].join(' · ');
}

/**
 * A record's timeline (where is it now): every step with who did it, in which organisation and when,
 * from the server's history, never from what anyone typed. Any screen with a history row action shows it.
 */
export function HistoryDrawer({
  screen,
  record,
  onClose,
}: {
  screen: ScreenSchema;
  record: ScreenRecord;
  onClose: () => void;
}) {
  const t = useT();
  const [events, setEvents] = useState<ShownEvent[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let current = true;
    dataProvider.getEvents(screen, record.id).then(
      (list) => current && setEvents(list),
      (e: unknown) => current && setError(errorMessage(e, t('screen.historyFailed'))),
    );
    return () => {
      current = false;
    };
    // A drawer shows one record; reopening it for another mounts it anew.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [screen, record.id]);
  const name = screen.resource.titleField ? String(record[screen.resource.titleField] ?? '') : '';
  return (
    <Drawer open title={`${t('screen.history')} ${name}`} size={480} onClose={onClose} className="record-history">
      {error && <Alert type="error" showIcon title={error} />}
      {!events && !error && <Spin />}
      {events && (
        <Timeline
          items={events.map((e) => ({
            key: e.id,
            color: e.kind === 'transition' ? 'blue' : 'gray',
            content: (
              <div className="record-event" data-kind={e.kind}>
                <Typography.Text strong>{title(e, t)}</Typography.Text>
                {e.toLabel && e.kind === 'transition' && (
                  <Typography.Text type="secondary">
                    {' '}
                    {e.fromLabel ? `${e.fromLabel} → ${e.toLabel}` : e.toLabel}
                  </Typography.Text>
                )}
                <div>{[new Date(e.at).toLocaleString(), e.actorName, e.orgName].filter(Boolean).join(' · ')}</div>
                {detail(e, t) && <Typography.Text type="secondary">{detail(e, t)}</Typography.Text>}
              </div>
            ),
          }))}
        />
      )}
    </Drawer>
  );
}
