/** "Leave without saving?": asked by the shell when a view switch would drop a section's unsaved edits. */
import { ConfirmDialog } from './common';
import { useUnsaved } from '../stores/unsaved';
import { views } from '../stores/ui';

export function LeaveGuard() {
  const pendingView = useUnsaved((s) => s.pendingView);
  const sections = Object.values(useUnsaved((s) => s.sections));
  if (!pendingView) return null;
  const target = views.find((v) => v.id === pendingView)?.label ?? pendingView;
  return (
    <ConfirmDialog
      title="Leave without saving?"
      confirmLabel="Leave without saving"
      danger
      onConfirm={() => useUnsaved.getState().confirmLeave()}
      onCancel={() => useUnsaved.getState().cancelLeave()}
    >
      <p>
        {sections.length === 1 ? `${sections[0]} has` : `${sections.join(', ')} have`} changes that are not saved. Going to{' '}
        {target} drops them.
      </p>
    </ConfirmDialog>
  );
}
