// Columns: the cells of each row side by side. The number of columns comes from the
// first row, so the CSS can size them; a cell holding just a picture is an image column.
export default function decorate(block) {
  const count = block.firstElementChild ? block.firstElementChild.children.length : 0;
  block.classList.add(`columns-${count}-cols`);
  block.querySelectorAll(':scope > div > div').forEach((cell) => {
    const picture = cell.querySelector(':scope > picture');
    if (picture && cell.children.length === 1) cell.classList.add('columns-img-col');
  });
}
