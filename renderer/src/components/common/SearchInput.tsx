/**
 * The view's search box. Ctrl+F or "/" (when not already typing) puts the
 * cursor in it; Escape clears it.
 */
import { useEffect, useRef } from 'react';
import { isDialogOpen } from './focusable';

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export interface SearchInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}

export function SearchInput({ label, value, onChange, placeholder }: SearchInputProps) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isDialogOpen()) return;
      const ctrlF = (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f';
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !isTyping(e.target);
      if (!ctrlF && !slash) return;
      e.preventDefault();
      ref.current?.focus();
      ref.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <input
      ref={ref}
      type="search"
      className="search-input"
      aria-label={label}
      aria-keyshortcuts="Control+F /"
      placeholder={placeholder ?? `${label} (Ctrl+F)`}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && value) {
          e.stopPropagation();
          onChange('');
        }
      }}
    />
  );
}
