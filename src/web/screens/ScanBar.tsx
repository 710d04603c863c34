import { useRef } from 'react';
import { Button, Switch, type InputRef } from 'antd';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { useT } from '../i18n';
import type { ScanActSwitch, ScanOutcome } from './list/useScanDesk';
import { ScannerInput } from './ScannerInput';

/** The scans a desk's tally lists; its counts cover every scan since it was cleared. */
const SHOWN = 8;

/**
 * The scanner's input of a screen that asks for one (list.scan): a scanner types the code and Enter;
 * the list shows that record, the input empties and keeps the focus for the next tube. Where the screen
 * names a scan action, a switch beside it runs that action on each scanned tube, and a tally under it
 * counts the scans done and refused, the latest with why.
 */
export function ScanBar({
  onScan,
  act,
  tally = [],
  onClearTally,
}: {
  onScan: (code: string) => void;
  act?: ScanActSwitch;
  tally?: ScanOutcome[];
  onClearTally?: () => void;
}) {
  const t = useT();
  const input = useRef<InputRef>(null);
  return (
    <div className="screen-scan-desk">
      <div className="screen-scan-row">
        <ScannerInput ref={input} autoFocus className="screen-scan" onCode={onScan} />
        {act && (
          <label className="screen-scan-act">
            <Switch
              size="small"
              checked={act.on}
              onChange={(on) => {
                act.setOn(on);
                // Back to the scanner: the next tube is scanned, not the switch turned again.
                input.current?.focus();
              }}
            />
            {t('screen.scanAct', { action: act.label })}
          </label>
        )}
      </div>
      {act?.on && tally.length > 0 && <ScanTally tally={tally} label={act.label} onClear={onClearTally} />}
    </div>
  );
}

function ScanTally({ tally, label, onClear }: { tally: ScanOutcome[]; label: string; onClear?: () => void }) {
  const t = useT();
  const done = tally.filter((s) => s.done).length;
  return (
    <div className="screen-scan-tally">
      <div className="screen-scan-count">
        {t('screen.scanCount', { n: tally.length, done, refused: tally.length - done, action: label })}
        {onClear && (
          <Button size="small" type="link" onClick={onClear}>
            {t('screen.scanClear')}
          </Button>
        )}
      </div>
      <div role="log" aria-label={t('screen.scanTally')}>
        <ol>
          {tally.slice(0, SHOWN).map((scan, i) => (
            <li key={tally.length - i} className={scan.done ? 'scan-done' : 'scan-refused'}>
              {scan.done ? <CheckCircleFilled /> : <CloseCircleFilled />}
              <span className="scan-code">{scan.code}</span>
              <span>{scan.text}</span>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
