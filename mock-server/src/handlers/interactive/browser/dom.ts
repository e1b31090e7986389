/** An element the page always has (../page.ts writes them all). */
export function $<E extends HTMLElement = HTMLElement>(id: string): E {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing`);
  return element as E;
}
