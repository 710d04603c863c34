import { perScreenPreference } from './perScreen';

/**
 * Whether a scanner desk runs its action on each scanned tube (list.scan.action), per user and screen:
 * the receipt clerk who turned it on finds it on the next morning; off until they do.
 */
const scanAct = perScreenPreference<boolean>('lims-scan-act');

export function useScanAct(screenId: string): [boolean, (on: boolean) => void] {
  const [on, set] = scanAct.usePreference(screenId, false);
  return [on, (value) => set(value || undefined)];
}
