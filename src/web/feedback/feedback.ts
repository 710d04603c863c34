import type { App } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;

/**
 * antd's message, modal and notification bound to the app's theme and locale (App.useApp), reachable
 * from code outside components too (the HTTP interceptors, the push channel). Set once by <FeedbackBridge>.
 */
export const feedback = {} as AppApi;

/** Spec 8: info, success and warning stay 1 s, errors 8 s. */
export const DURATION = { info: 1, success: 1, warning: 1, error: 8 } as const;

/**
 * The app's messages. A message given a `key` replaces the one showing under that key: the outcome
 * of one action's tries is one message, so a success takes the place of an earlier try's error (which
 * would otherwise stay its 8 s beside, or after, the 1 s success).
 */
export const notify = {
  info: (text: string) => feedback.message?.info(text, DURATION.info),
  success: (text: string, key?: string) =>
    feedback.message?.open({ type: 'success', content: text, duration: DURATION.success, key }),
  warning: (text: string) => feedback.message?.warning(text, DURATION.warning),
  error: (text: string, seconds: number = DURATION.error, key?: string) =>
    feedback.message?.open({ type: 'error', content: text, duration: seconds, key }),
  /**
   * The outcome of a far-reaching action (deploying a model, distributing or syncing to other labs): a
   * note that stays until closed, since a 1 s message is gone before the user looks up from the button.
   */
  lasting: (title: string, text: string) =>
    feedback.notification?.success({ title, description: text, duration: 0, className: 'lasting-note' }),
  /** Takes away the message showing under a key (an earlier try's error), if any. */
  dismiss: (key: string) => feedback.message?.destroy(key),
};
