import { AxiosError } from 'axios';
import type { FieldError } from '../../../shared/screens/validate';
import { rt, type Word } from './i18n';
import type { InstanceStatus } from './api';

/** Spec 3 flow results, in the order the task dialog offers them, with the words the lab reads. */
export const RESULTS = [
  { value: 'pass', label: '通过' },
  { value: 'unpass', label: '不通过' },
  { value: 'rollback_last', label: '退回上一步' },
  { value: 'rollback_start', label: '退回发起人' },
  { value: 'rollback_define', label: '退回指定节点' },
] as const satisfies readonly { value: string; label: Word }[];

export type ResultValue = (typeof RESULTS)[number]['value'];

export const resultLabel = (result: string | null) => {
  const known = RESULTS.find((r) => r.value === result);
  return known ? rt(known.label) : (result ?? '');
};

const STATUS: Record<InstanceStatus, { label: Word; color: string }> = {
  running: { label: '运行中', color: 'processing' },
  suspended: { label: '已挂起', color: 'warning' },
  completed: { label: '已结束', color: 'default' },
  terminated: { label: '已终止', color: 'error' },
};
export const statusOf = (status: InstanceStatus) => ({ label: rt(STATUS[status].label), color: STATUS[status].color });

const two = (n: number) => String(n).padStart(2, '0');

/**
 * Spec 2.4's time format, year-month-day hour:minute:second, in local time. Written out rather than
 * dayjs (dialogs.tsx formatTime): the dashboard's task panels use it and should not carry dayjs.
 */
export function time(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** Field errors the server answered (400 with resultObject.errors), else none. */
export function serverFieldErrors(error: unknown): FieldError[] {
  if (error instanceof AxiosError)
    return (error.response?.data as { resultObject?: { errors?: FieldError[] } })?.resultObject?.errors ?? [];
  return [];
}
