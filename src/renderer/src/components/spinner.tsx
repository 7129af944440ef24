/** A small activity indicator; with reduced motion it is a still dot. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
