import { errorMessage } from '../../api/http';
import { feedback, notify } from '../../feedback/feedback';

/** What the delete dialogue says (spec 8: 警告 / … 是否继续? / 删除成功, 删除失败, 已取消删除), in the page's words. */
export interface DeleteTexts {
  title: string;
  content: string;
  ok: string;
  cancel: string;
  done: string;
  cancelled: string;
  /** Shown when the server refuses, after its own reason when it gave one (see `failed`). */
  failed: string;
}

export interface ConfirmDeleteOptions<K> {
  /** Deletes the rows on the server. */
  remove: (ids: K[]) => Promise<unknown>;
  texts: DeleteTexts;
  /** How a failure reads; by default the server's reason, else `texts.failed`. */
  failure?: (error: unknown, texts: DeleteTexts) => string;
  /** The list's selection, cleared once the rows are gone (a failed delete keeps it). */
  selection?: { clear: () => void };
  /** Shows the list without the deleted rows. */
  reload: () => void;
}

/**
 * Delete with a warning first: nothing is deleted until the user confirms; then the rows go, the
 * selection empties and the list reloads. A refusal keeps both and says why; a cancel says so.
 */
export function useConfirmDelete<K>({ remove, texts, failure, selection, reload }: ConfirmDeleteOptions<K>) {
  return (ids: K[]) =>
    feedback.modal.confirm({
      title: texts.title,
      content: texts.content,
      okText: texts.ok,
      cancelText: texts.cancel,
      onOk: async () => {
        try {
          await remove(ids);
          notify.success(texts.done);
          selection?.clear();
          reload();
        } catch (e) {
          notify.error(failure ? failure(e, texts) : errorMessage(e, texts.failed));
        }
      },
      onCancel: () => notify.info(texts.cancelled),
    });
}
