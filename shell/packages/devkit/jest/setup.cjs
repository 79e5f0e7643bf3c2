require('@testing-library/jest-dom');

// findBy*/waitFor give up after 1 s by default. On the 2-core CI machine, with jest's workers beside other
// stages, a lazy panel's first render has been seen to take longer than that; a passing wait returns as soon as
// its element appears, so a longer ceiling only changes how long a real failure takes to report.
require('@testing-library/react').configure({ asyncUtilTimeout: 5000 });
