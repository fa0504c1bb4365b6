// Specs: rows of "label | value" are a description list, which is what they mean.
// A row with more than two cells keeps every further cell as another value.
export default function decorate(block) {
  const dl = document.createElement('dl');
  [...block.children].forEach((row) => {
    const [label, ...values] = [...row.children];
    if (!label) return;
    const dt = document.createElement('dt');
    dt.append(...label.childNodes);
    dl.append(dt);
    values.forEach((value) => {
      const dd = document.createElement('dd');
      dd.append(...value.childNodes);
      dl.append(dd);
    });
  });
  block.replaceChildren(dl);
}
