import { TextDialog, type TextDialogCopy } from './RejectDialog.tsx';

const COPY: TextDialogCopy = {
  title: 'operator.reconciliation.resolveTitle',
  label: 'operator.reconciliation.note',
  placeholder: 'operator.reconciliation.notePlaceholder',
  required: 'operator.reconciliation.noteShort',
  action: 'operator.reconciliation.resolve',
  danger: false,
};

/** Resolving a difference asks what the operator found and did (kept in the audit log). */
export function ResolveDialog({
  onResolve,
  ...props
}: {
  visible: boolean;
  summary: string;
  /** Resolves true once the difference is resolved; the dialog then closes. */
  onResolve: (note: string) => Promise<boolean>;
  onClose: () => void;
}) {
  return <TextDialog {...props} copy={COPY} min={3} max={500} onSubmit={onResolve} />;
}
