import type { ToastShowProps } from 'antd-mobile/es/components/toast';

/**
 * A toast, with antd-mobile's Toast (and its animation library) loaded on first use, so the
 * home route does not download it before anything needs saying.
 */
export function showToast(props: ToastShowProps): void {
  // The component's own module: importing the package's index at run time would keep every
  // component of the library in the chunk the home route shares with it.
  void Promise.all([import('antd-mobile/es/components/toast'), import('./imperativeRender.ts')]).then(
    ([{ default: Toast }]) => Toast.show(props),
  );
}
