import type { Locator, Page } from 'playwright-core';

/** The Add sheet opened from the toolbar, `file` typed in as a pasted path, into Spanish: as a person does. */
export async function sheetWithFile(page: Page, file: string): Promise<Locator> {
  await page.getByRole('button', { name: '+ Add files' }).click();
  const sheet = page.getByRole('dialog', { name: 'Add to queue' });
  await sheet.getByRole('textbox', { name: 'Paths or URLs, one per line' }).fill(file);
  await sheet.getByRole('button', { name: 'Add', exact: true }).click();
  const box = sheet.getByRole('combobox', { name: /Dub into/ });
  await box.fill('Spanish');
  await page.getByRole('option', { name: /^Spanish es( |$)/ }).waitFor();
  await box.press('Enter');
  await box.press('Tab');
  return sheet;
}
