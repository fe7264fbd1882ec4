/** The shared building blocks every view uses. */
export { ErrorNotice, errorKindLabel, type ErrorNoticeProps } from './ErrorNotice';
export { StateBadge, toneOf, type Tone } from './StateBadge';
export { HealthDot, usageLevel, healthTone, type HealthLevel } from './HealthDot';
export { ProgressBar, type ProgressBarProps } from './ProgressBar';
export { UsageMeter, type UsageMeterProps } from './UsageMeter';
export { Dialog, type DialogProps } from './Dialog';
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
export { EmptyState } from './EmptyState';
export { Trend, summarise, type TrendProps, type TrendSeries } from './Trend';
export { Toolbar } from './Toolbar';
export { SearchInput, type SearchInputProps } from './SearchInput';
export { CopyButton } from './CopyButton';
export { Field } from './Field';
export { isDialogOpen } from './focusable';
export { DataTable, sortRows, type DataColumn, type DataSelection, type DataTableProps, type SortState } from './DataTable';
