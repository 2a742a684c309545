/** A short wait, said in words (the spinner is decoration). */
export function LoadingLine({ text }: { text: string }) {
  return (
    <p className="loading-line" role="status">
      <span className="spinner" aria-hidden="true" />
      {text}
    </p>
  );
}
