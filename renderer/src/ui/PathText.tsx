import { Fragment } from 'react';

/**
 * A path, or a list of paths, that may wrap only after a separator (/ \ : ;): a wrap at the "-"
 * of "x86_64-linux-gnu" reads as two paths. Copying still gives the text unchanged: <wbr> adds
 * no characters.
 */
export function PathText({ path }: { path: string }) {
  const parts = path.split(/(?<=[/\\:;])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          <span className="path-segment">{part}</span>
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  );
}
