// Note: a one-cell callout. Announced as a note to assistive technology, with a
// visible label so it reads as an aside, not as part of the steps around it.
export default function decorate(block) {
  block.setAttribute('role', 'note');
  const label = document.createElement('p');
  label.className = 'note-label';
  label.textContent = 'Note';
  block.prepend(label);
}
