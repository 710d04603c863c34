import type { App } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;

/**
 * antd's message, modal and notification bound to the app's theme and locale (App.useApp), reachable
 * from code outside components too (the HTTP interceptors, the push channel). Set once by <FeedbackBridge>.
 */
export const feedback = {} as AppApi;

/** Spec 8: info, success and warning stay 1 s, errors 8 s. */
export const DURATION = { info: 1, success: 1, warning: 1, error: 8 } as const;

export const notify = {
  info: (text: string) => feedback.message?.info(text, DURATION.info),
  success: (text: string) => feedback.message?.success(text, DURATION.success),
  warning: (text: string) => feedback.message?.warning(text, DURATION.warning),
  error: (text: string, seconds: number = DURATION.error) => feedback.message?.error(text, seconds),
};
