import { Fragment } from 'react';

/** A value that may be a comma-separated list (team rules): a narrow screen breaks it after a comma. */
export function ListValue({ value }: { value: string }) {
  const items = value.split(',');
  return (
    <>
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the items of one value, in their order
        <Fragment key={i}>
          {item}
          {i < items.length - 1 && (
            <>
              ,<wbr />
            </>
          )}
        </Fragment>
      ))}
    </>
  );
}
