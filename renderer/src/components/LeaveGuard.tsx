/** "Leave without saving?": asked by the shell when a view switch would drop a section's unsaved edits. */
import { ConfirmDialog } from './common';
import { useUnsaved } from '../stores/unsaved';
import { useUi, views } from '../stores/ui';

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
      onConfirm={() => {
        const target = useUnsaved.getState().confirmLeave();
        if (target) useUi.getState().setView(target);
      }}
      onCancel={() => useUnsaved.getState().cancelLeave()}
    >
      <p>
        {sections.length === 1 ? `${sections[0]} has` : `${sections.join(', ')} have`} changes that are not saved. Going to{' '}
        {target} drops them.
      </p>
    </ConfirmDialog>
  );
}
