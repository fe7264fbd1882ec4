import { matrixSuite } from './suite';

matrixSuite('create');
