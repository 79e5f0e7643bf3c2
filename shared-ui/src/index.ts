export { Banner } from './components/banner/banner';
export type { BannerProps, BannerTone } from './components/banner/banner';
export { Button } from './components/button/button';
export type { ButtonProps, ButtonVariant } from './components/button/button';
export { Card } from './components/card/card';
export type { CardProps, HeadingLevel } from './components/card/card';
export { Field } from './components/field/field';
export { Fieldset, type FieldsetProps } from './components/fieldset/fieldset';
export type { FieldControlProps, FieldProps } from './components/field/field';
export { IconButton } from './components/icon-button/icon-button';
export type { IconButtonProps } from './components/icon-button/icon-button';
export { LoadFailure } from './components/load-failure/load-failure';
export type { LoadFailureProps } from './components/load-failure/load-failure';
export { Page, PageHeader } from './components/page-header/page-header';
export type { PageHeaderProps, PageProps } from './components/page-header/page-header';
export { EmptyState, Hint } from './components/notes/notes';
export { Modal } from './components/modal/modal';
export type { ModalProps } from './components/modal/modal';
export { RepeatField } from './components/repeat-field/repeat-field';
export type { RepeatFieldProps } from './components/repeat-field/repeat-field';
export { SeriesScopeDialog } from './components/series-scope-dialog/series-scope-dialog';
export type {
  SeriesItem,
  SeriesScopeAction,
  SeriesScopeChoice,
  SeriesScopeDialogProps,
} from './components/series-scope-dialog/series-scope-dialog';
export { Skeleton } from './components/skeleton/skeleton';
export type { SkeletonProps } from './components/skeleton/skeleton';
export { Spinner } from './components/spinner/spinner';
export type { SpinnerProps } from './components/spinner/spinner';
export { VisuallyHidden } from './components/visually-hidden/visually-hidden';
export * from './lib';
