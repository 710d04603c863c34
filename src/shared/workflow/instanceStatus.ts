/**
 * Where a process instance stands: running, suspended by an administrator, completed at an end event,
 * or terminated where it stood (its specimen rejected or cancelled). The server checks a filter
 * against these; the workflow manager offers them in this order.
 */
export const INSTANCE_STATUSES = ['running', 'suspended', 'completed', 'terminated'] as const;

export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

export const isInstanceStatus = (value: string): value is InstanceStatus =>
  (INSTANCE_STATUSES as readonly string[]).includes(value);
