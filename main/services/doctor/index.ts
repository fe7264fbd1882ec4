/** The connect doctor's public face. */
export { runDoctor, type RunDoctorOptions } from './run-doctor';
export { doctorHandlers, type DoctorDeps } from './handlers';
export { profileFromDirectory } from './from-directory';
export type { DoctorConnection, ResolveProfileConnection, DoctorProgressListener } from './ports';
