import { useRef, useState, type ReactNode } from 'react';
import { Icon, type IconName } from '../../../components/Icon';
import { useDismiss } from '../../../hooks/use-dismiss';

/**
 * A toolbar button that opens a popover above the composer; an outside press closes it, Escape
 * closes it and puts the caret back in the message box.
 */
export function ToolbarPopover({ icon, label, active, badge, disabled, onEscape, children }: { icon: IconName; label: string; active: boolean; badge?: number; disabled?: boolean; onEscape: () => void; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(ref, open, (reason) => {
    setOpen(false);
    if (reason === 'escape') onEscape();
  });
  return (
    <div ref={ref}>
      <button type="button" className={`icon-btn${active ? ' active' : ''}`} onClick={() => setOpen((o) => !o)} aria-label={label} title={label} aria-expanded={open} disabled={disabled}>
        <Icon name={icon} />
        {badge !== undefined && badge > 0 && <span className="tool-count">{badge}</span>}
      </button>
      {open && children}
    </div>
  );
}
