// Home's parts that read the server, in one chunk: one request after the first paint, and one
// render reveals them all (their lazies settle together).
export { Bell } from '../../components/Bell.tsx';
export { OperatorEntry } from '../operator/OperatorEntry.tsx';
export { ProofLine } from '../proof/ProofLine.tsx';
export { Dashboard } from './Dashboard.tsx';
