import { Fragment } from 'react';

/** A value that may be a list (team rules): a narrow screen breaks it after a comma. */
export function ListValue({ items }: { items: readonly string[] }) {
  return (
    <>
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the items of one value, in their order
        <Fragment key={i}>
          {item}
          {i < items.length - 1 && (
            <>
              , <wbr />
            </>
          )}
        </Fragment>
      ))}
    </>
  );
}
