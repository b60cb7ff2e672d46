//! The static-instances view: instance nodes where count/for_each are known without evaluating
//! anything. (Filled in below.)
