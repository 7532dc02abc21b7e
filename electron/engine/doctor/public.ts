/** What the faces get of the doctor (through the engine's entry). */
export { formatChecks, type Check } from './check';
export { diagnose, diagnosticsReport, type DiagnoseOptions } from './diagnose';
